export { FileSizes } from './file-sizes.js';
export { installStorageQuota } from './quota.js';
export { TaskRetention } from './retention.js';
export { storageStatus, StorageStatusSchema } from './status.js';
export { takeAndMediaFiles } from './task-files.js';
export { StorageUsage } from './usage.js';
