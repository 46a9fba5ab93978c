"""The OpenAPI schema tells the whole truth: every operation documents the error answers
it can give, all in the contract's one shape (API.md: `{"code", "detail"}`, validation
errors with `"fields"`). A drf-spectacular post-processing hook adds them, so no view
can forget one."""

from __future__ import annotations

from typing import Any, ClassVar

from django.http import HttpResponse, HttpResponseBase
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView
from rest_framework import serializers
from rest_framework.request import Request


class AnyObject(serializers.Serializer):
    """A JSON object whose fields the view's description gives (documented as an object
    with any properties). `AnyObject(many=True)` documents a list of them."""

    class Meta:
        ref_name = "AnyObject"


#: For `extend_schema(responses={200: OBJECTS})` on views that answer a JSON array.
OBJECTS = AnyObject(many=True)

ERROR = {
    "type": "object",
    "required": ["code", "detail"],
    "properties": {
        "code": {"type": "string", "description": "A machine code, e.g. `wrong_phase`."},
        "detail": {"type": "string", "description": "A sentence a person understands."},
        "fields": {"type": "object", "additionalProperties": True,
                   "description": "Validation errors by field (400 only)."},
    },
}

COMMON = {
    "400": "Invalid input (nothing changed).",
    "401": "Not signed in (no or a bad token).",
    "403": "Forbidden: the caller may see this but may not do that.",
    "404": "Not found, or not for the caller to see.",
    "429": "Too many requests (throttled or locked out); try again later.",
    "503": "Busy (concurrent work made the database refuse the request) or the database "
           "cannot be reached; nothing changed. Try again (`Retry-After`).",
}
WRITES = {
    "409": "Not allowed in the current phase or state (nothing changed).",
}
ADVANCE = {"428": "The request must name the phase it advances from ({turn, phase})."}


def add_error_responses(result: dict[str, Any], generator: Any, request: Any,
                        public: bool) -> dict[str, Any]:
    """drf-spectacular POSTPROCESSING_HOOKS entry: the Error component and every error
    status on every operation (writes also 409 and 503; advance also 428)."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components["Error"] = ERROR
    ref = {"$ref": "#/components/schemas/Error"}
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            statuses = dict(COMMON)
            if method in ("post", "put", "patch", "delete"):
                statuses.update(WRITES)
            if path.endswith("/advance/"):
                statuses.update(ADVANCE)
            # a phase not over (or never played); a turn's orders still sealed
            if path.endswith(("/verify/", "/receipts/")):
                statuses["409"] = WRITES["409"]
            for code, description in statuses.items():
                operation["responses"].setdefault(code, {
                    "description": description,
                    "content": {"application/json": {"schema": ref}}})
    return result


class SchemaView(SpectacularAPIView):
    """`GET /api/schema/`: the OpenAPI document, generated and rendered once per process
    for each format (YAML, JSON), API version and language it is asked in.

    The document depends only on the code (`SERVE_PUBLIC`: the same for every caller), and
    generating it walks every view and serializer: ~0.5 s of CPU, which an anonymous caller
    could otherwise make the server spend on every request (issue 32)."""

    _rendered: ClassVar[dict[tuple[str, str | None, str | None, str | None],
                             tuple[bytes, dict[str, str]]]] = {}

    def _key(self, request: Request) -> tuple[str, str | None, str | None, str | None]:
        return (request.accepted_media_type, request.version,
                request.GET.get("version"), request.GET.get("lang"))

    @extend_schema(exclude=True)  # SERVE_INCLUDE_SCHEMA is off, as on the view it extends
    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        key = self._key(request)
        cached = self._rendered.get(key)
        if cached is not None:
            content, headers = cached
            return HttpResponse(content, headers=headers)
        response = super().get(request, *args, **kwargs)
        if response.status_code == 200:
            # Rendered here rather than on the way out, so the bytes can be kept.
            response.accepted_renderer = request.accepted_renderer
            response.accepted_media_type = request.accepted_media_type
            response.renderer_context = self.get_renderer_context()
            response.render()
            self._rendered[key] = (response.content, {
                name: response[name] for name in ("Content-Type", "Content-Disposition")})
        return response
