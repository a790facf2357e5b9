import { UsageError } from '../cli-args';

/** A sign CLI invocation missing or mixing flags; the runner prints it above the usage text. */
export class SignUsageError extends UsageError {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
