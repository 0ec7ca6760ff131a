/** The signed-in console, loaded as one chunk after sign-in (the login page never loads it). */
export { Shell } from './Shell';
