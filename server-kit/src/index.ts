export * from './config.ts';
export * from './connections.ts';
export * from './cookies.ts';
export * from './encoding.ts';
export * from './logger.ts';
export * from './operatorAccess.ts';
export * from './rateLimit.ts';
export * from './trustedProxies.ts';
