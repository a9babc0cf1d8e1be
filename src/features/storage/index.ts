export { FileSizes } from './file-sizes.js';
export { installStorageQuota, type KeyLine } from './quota.js';
export { TaskRetention } from './retention.js';
export { storageStatus, StorageStatusSchema } from './status.js';
export { takeAndMediaFiles } from './task-files.js';
export { StorageUsage } from './usage.js';
