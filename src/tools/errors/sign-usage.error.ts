/** A sign CLI invocation missing or mixing flags; the runner prints it above the usage text. */
export class SignUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
