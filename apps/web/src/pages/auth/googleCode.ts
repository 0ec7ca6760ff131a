/** A Google authenticator code: six digits. */
export const SIX_DIGITS = /^\d{6}$/;
