// The local chain's programmatic entry (issue 17 §3); filled in by the devchain work.
export {};
