import { Foundation1763800000000 } from './1763800000000-foundation';
import { Nodes1763900000000 } from './1763900000000-nodes';

/** Every migration, in order. Never edit one after it is committed: add a new one. */
export const MIGRATIONS = [Foundation1763800000000, Nodes1763900000000] as const;
