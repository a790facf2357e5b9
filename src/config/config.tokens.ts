/** Injection token of the frozen AppConfig (provided once by the composition root). */
export const APP_CONFIG = Symbol('APP_CONFIG');
