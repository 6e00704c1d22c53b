export { readConfig, ConfigError, DEVELOPMENT_JWT_SECRET, MEMORY_DB_URL, type Config, type LogLevel } from './config.js';
export { createBcryptPasswordHasher, BCRYPT_COST } from './bcrypt-password-hasher.js';
export { createJoseTokenService, TOKEN_LIFETIME_SECONDS } from './jose-token-service.js';
export { systemClock } from './system-clock.js';
export { createLogger } from './logger.js';
export { createInkwell, type Inkwell, type InkwellOverrides } from './inkwell.js';
export { openStore, StoreStartError, type Store } from './store.js';
export { startServer, type RunningServer } from './server.js';
