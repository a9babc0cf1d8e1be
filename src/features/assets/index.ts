export { AssetRepository } from './repository.js';
export { AssetSchema, assetRoutes } from './routes.js';
export { AssetService, presentAsset, uploadTempDir } from './service.js';
