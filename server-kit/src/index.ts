export * from './config.ts';
export * from './encoding.ts';
export * from './connections.ts';
export * from './logger.ts';
export * from './trustedProxies.ts';
