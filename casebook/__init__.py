"""The case book: rules of Unlimit3d 8 proven as data (docs/CASEBOOK_FORMAT.md).

A case is a YAML file: the rule it checks, `given` (the state before), `dice` (the
exact faces, in order), `when` (actions through the real services and the real battle
engine) and `then` (the state or outcome after, or the code of a refusal). The runner
(`python manage.py casebook PATH ...`) plays cases in a throwaway database, one
rolled-back transaction each.

Modules: `case` (loading and validating files), `given` (building the state),
`actions` and `battle` (running `when`), `queries` (pure rule look-ups),
`expect` (checking `then`), `runner` (playing a book), `compliance` (the
compliance page).
"""
