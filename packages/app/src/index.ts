export { readConfig, ConfigError, DEVELOPMENT_JWT_SECRET, MEMORY_DB_URL, type Config, type LogLevel } from './config.js';
export { createBcryptPasswordHasher, BCRYPT_COST } from './adapters/bcrypt-password-hasher.js';
export { createJoseTokenService } from './adapters/jose-token-service.js';
export { systemClock } from './adapters/system-clock.js';
export { createLogger } from './logger.js';
export { createInkwell, type Inkwell, type InkwellOverrides } from './inkwell.js';
export { openStore, memoryStore, StoreStartError, type Store, type LimitRule } from './store.js';
export { mongoStore } from './mongo-store.js';
export { startServer, type RunningServer, type ServerOptions } from './server.js';
