import * as yup from 'yup';
import { str } from '../../shared/validation';

/** Long enough to resist guessing, short enough that hashing it cannot be used to exhaust the server. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

export const emailField = () =>
  str().required('email is required').max(254, 'email is too long').email('email must be a valid e-mail address');

export const passwordField = (name = 'password') =>
  yup
    .string()
    .transform((_v: unknown, original: unknown) => original)
    .required(`${name} is required`)
    .min(PASSWORD_MIN, `${name} must be at least ${PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX, `${name} must be at most ${PASSWORD_MAX} characters`);

export const displayNameField = () =>
  str().min(1, 'displayName must not be empty').max(100, 'displayName must be at most 100 characters');
