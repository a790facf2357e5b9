/**
 * The service key file is missing (when named by CHAT_SERVICE_KEY_FILE) or does not hold a seed: a
 * start-up failure, never an HTTP reply, so not a DomainError.
 */
export class ServiceKeyFileError extends Error {}
