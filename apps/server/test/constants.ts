/** The passwords of the test fixtures (the seeded super admin's, and the staff a test makes). */
export const ADMIN_PASSWORD = 'Admin#2026pass';
export const PASSWORD = 'Staff#2026pass';
