"""The run: one path from named paths to findings (discover, read, per-file rules in workers, the cache, bank rules,
suppressions, baseline, --fix, --form). Import the module you need; this package imports nothing."""
