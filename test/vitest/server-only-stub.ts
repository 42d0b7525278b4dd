// Tests import server code directly; the real `server-only` package throws
// outside a React Server environment, so vitest aliases it to this file.
export {};
