/**
 * How many of one kind of resource an owner may hold (a plan limit), handed to the store that creates
 * it: the store counts and inserts as one step that concurrent creations of the same owner cannot
 * interleave, and with `max` or more already there it stores nothing and throws `exceeded()`.
 */
export interface OwnerLimit {
  max: number;
  exceeded(): Error;
}
