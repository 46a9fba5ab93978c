FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
RUN pip install --no-cache-dir .
COPY . .
EXPOSE 8000
CMD ["gunicorn", "campaign.wsgi:application", "--bind", "0.0.0.0:8000"]
