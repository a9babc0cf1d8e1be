export { AssetRepository } from './repository.js';
export { assetRoutes } from './routes.js';
export { AssetService, presentAsset, uploadTempDir } from './service.js';
