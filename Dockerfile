# The UNO server: one image for the app and for its migration step.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /srv
COPY pyproject.toml README.md ./
COPY engine engine
COPY app app
RUN pip install --no-cache-dir .
COPY migrations migrations
COPY alembic.ini ./
COPY web web
COPY clients/js/src clients/js/src
COPY clients/js/vendor clients/js/vendor

EXPOSE 8000
# Database.connect migrates on start; the compose file also runs `alembic upgrade head`
# once before the app replicas start, so that they do not race to migrate.
CMD ["python", "-m", "app", "--host", "0.0.0.0", "--port", "8000"]
