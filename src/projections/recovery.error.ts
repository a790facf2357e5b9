/** The data directory does not hold a state this build can recover to (start-up refuses, naming it). */
export class RecoveryError extends Error {}
