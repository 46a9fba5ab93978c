# Every ruleset's hot modules compiled by mypyc (issues 15 and 32) in a stage of their own,
# with the same Python as the image below: a ruleset uses its build only while it matches
# its source and this Python, and runs from source otherwise (a failed build is no failure).
FROM python:3.11-slim AS engine
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
# Every step may fail (no compiler, no network for apt): the image then simply has no build.
RUN (apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
     && rm -rf /var/lib/apt/lists/* && pip install --no-cache-dir ".[dev]") || true
COPY . .
RUN rm -rf build/engine-native && mkdir -p build \
    && (python scripts/build_engine.py || true) && mkdir -p build/engine-native

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
RUN pip install --no-cache-dir .
COPY . .
RUN rm -rf build/engine-native
COPY --from=engine /app/build/engine-native /app/build/engine-native
EXPOSE 8000
CMD ["gunicorn", "campaign.wsgi:application", "--bind", "0.0.0.0:8000"]
