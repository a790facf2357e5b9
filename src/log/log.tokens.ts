/** Injection token of the EventLog backend chosen by configuration. */
export const EVENT_LOG = Symbol('EVENT_LOG');
