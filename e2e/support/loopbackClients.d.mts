export function getFrom(
  origin: string,
  path: string,
  options: { client: number; headers?: Record<string, string>; timeoutMs?: number; networks?: number },
): Promise<{ status: number; ms: number }>;
