"""What a long-lived process does once it has loaded the project (the web worker in
`campaign/wsgi.py`, a Celery worker in `campaign/celery.py`).

`settle()` runs one full garbage collection and then freezes what survives (Django, the
apps, the rule tables: objects that live as long as the process) into the collector's
permanent generation (`gc.freeze`, Python >= 3.7). A full collection then walks only the
objects a request or a job made, instead of the few hundred thousand loaded at start: an
advance no longer pays a whole-heap collection that happens to fall inside it (issue 32:
0.12-0.14 s of CPU where it landed). Frozen objects are never collected, so this is done
once, after loading, never per request.
"""

from __future__ import annotations

import gc


def settle() -> None:
    gc.collect()
    gc.freeze()
