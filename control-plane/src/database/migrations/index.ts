import { Foundation1763800000000 } from './1763800000000-foundation';
import { Nodes1763900000000 } from './1763900000000-nodes';
import { ClientJourney1764000000000 } from './1764000000000-client-journey';

/** Every migration, in order. Never edit one after it is committed: add a new one. */
export const MIGRATIONS = [
  Foundation1763800000000,
  Nodes1763900000000,
  ClientJourney1764000000000,
] as const;
