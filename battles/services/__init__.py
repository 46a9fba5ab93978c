"""Services of the battles app: opening the tactical phase's battles, running them as
jobs, recording results (losses, damage, ownership, retreats, XP), tabletop results and
odds. The engines live in `battles.rulesets`."""
