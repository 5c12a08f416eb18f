"""Settings for Pinochle Arena, read from the environment only.

Variables (see README.md, "Configuration"):

- ``DEBUG`` (default false). ``SECRET_KEY`` is required when DEBUG is off.
- ``ALLOWED_HOSTS``: comma-separated (default ``127.0.0.1,localhost``).
- ``DATABASE_URL``: ``postgres://...`` or ``sqlite:///path`` (default: a SQLite file in var/).
- ``CELERY_BROKER_URL`` or ``REDIS_URL``: the broker. Unset, tasks execute in-process
  through the same task functions (the embedded mode used by ``make demo``).
- ``UPLOAD_RATE``: uploads of bot versions allowed per player (default ``30/hour``).
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from arena.env import env_bool, env_choice, env_int, env_list, env_prefixed, env_str, env_url
from arena.sandbox import ConfigError, SandboxConfig

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("ARENA_VAR_DIR") or BASE_DIR / "var")

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY") or ""
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off")
    # Only ever used with DEBUG on, on a developer's machine.
    SECRET_KEY = "insecure-development-key-for-debug-mode-only"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "arena",
    "leagues",
    "leagues.tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "arena.urls"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "index"
LOGOUT_REDIRECT_URL = "index"
WSGI_APPLICATION = "arena.wsgi.application"
ASGI_APPLICATION = "arena.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

_database_url = env_url("DATABASE_URL", schemes=("postgres", "postgresql", "pgsql", "sqlite"))
if _database_url is None:
    _database_url = f"sqlite:///{VAR_DIR / 'arena.sqlite3'}"
DATABASES = {
    "default": dj_database_url.parse(
        _database_url, conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60, minimum=0)
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded mode's web server, worker and beat share the file: WAL lets readers go on
    # while one writes, a writer waits for the lock instead of failing at once, and a
    # transaction takes the write lock when it begins rather than deadlocking on upgrade.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# Without a collected STATIC_ROOT (make demo, tests) WhiteNoise serves from the apps.
WHITENOISE_USE_FINDERS = True

# --- broker, cache, tasks ----------------------------------------------------------------

_BROKER_SCHEMES = ("redis", "rediss", "amqp", "amqps", "memory", "filesystem")
REDIS_URL = env_url("REDIS_URL", schemes=("redis", "rediss"))
CELERY_BROKER_URL = env_url("CELERY_BROKER_URL", schemes=_BROKER_SCHEMES) or REDIS_URL
# Embedded mode: with no broker configured, every task runs in the calling process through
# the same task function, so `make demo` needs neither Redis nor a worker.
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
if CELERY_TASK_ALWAYS_EAGER:
    # Nothing is ever sent; an in-memory transport keeps Celery from looking for a server.
    CELERY_BROKER_URL = "memory://localhost/"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A match message is acknowledged only when the match is over: a worker that dies leaves it
# to be delivered again, and the match's claim (a lease) makes the redelivery safe.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("BROKER_VISIBILITY_TIMEOUT", 6 * 3600, minimum=1),
    "unacked_restore_interval": 5,
    "unacked_restore_throttle": 1,
}
# filesystem://: the embedded broker of `make demo`, message files under var/broker, for a
# real worker and beat on one machine without a broker server.
BROKER_DIR = VAR_DIR / "broker"
if CELERY_BROKER_URL.startswith("filesystem://"):
    for _folder in ("messages", "control"):
        (BROKER_DIR / _folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "messages"),
        "data_folder_out": str(BROKER_DIR / "messages"),
        "control_folder": str(BROKER_DIR / "control"),
    }
CELERY_BEAT_SCHEDULE = {
    "matchmaking": {"task": "arena.matchmaking", "schedule": 300.0},
    "requeue-stale-matches": {"task": "arena.match_requeue_stale", "schedule": 60.0},
    "fit-bradley-terry": {"task": "arena.ratings_fit", "schedule": 900.0},
    "close-league-rounds": {"task": "leagues.rounds_close", "schedule": 60.0},
}
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "arena") or "arena"

_LOCAL_CACHE = {
    # Per process, in front of the shared cache, for immutable or generation-keyed pages.
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "arena-local",
    "OPTIONS": {"MAX_ENTRIES": 5000},
}
if REDIS_URL:
    # Throttle counters must be shared by every web process, so they live in Redis.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "arena",
        },
        "local": _LOCAL_CACHE,
    }
elif CELERY_BROKER_URL.startswith("filesystem://"):
    # The embedded mode's processes must see each other's leaderboard generation.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        },
        "local": _LOCAL_CACHE,
    }
else:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "local": _LOCAL_CACHE,
    }

# --- bot sandbox -------------------------------------------------------------------------

# bubblewrap: every bot runs in the sandbox (production, CI). plain: ordinary processes, for
# trusted bots only. auto: the sandbox when this machine can run it, else plain (make demo).
SANDBOX_MODE = env_choice("SANDBOX_MODE", "bubblewrap", choices=("bubblewrap", "plain", "auto"))
try:
    # SANDBOX_BOT_USER, SANDBOX_MEMORY_BYTES=512MiB, SANDBOX_PIDS, SANDBOX_CPU_SECONDS, ...:
    # any field of arena.sandbox.SandboxConfig or Limits, upper-cased with the prefix.
    SANDBOX_CONFIG = SandboxConfig.from_mapping(env_prefixed("SANDBOX_", exclude=("SANDBOX_MODE",)))
except ConfigError as error:
    raise ImproperlyConfigured(f"sandbox settings: {error}") from None

# --- matches and ratings -------------------------------------------------------------------

MATCH_DECISION_MS = env_int("MATCH_DECISION_MS", 1000, minimum=10)
MATCH_BANK_MS = env_int("MATCH_BANK_MS", 60_000, minimum=100)
# A running match's claim lapses after 4 time banks (the longest a board can take) plus
# this margin without progress; another worker may then take the match over.
MATCH_LEASE_MARGIN_S = env_int("MATCH_LEASE_MARGIN_S", 60, minimum=1)
MATCH_MAX_RETRIES = env_int("MATCH_MAX_RETRIES", 5, minimum=0)
CHALLENGE_RATE = env_str("CHALLENGE_RATE", "20/hour")
MATCHMAKING_BOARDS = env_int("MATCHMAKING_BOARDS", 50, minimum=1)
VALIDATION_BOARDS = env_int("VALIDATION_BOARDS", 2, minimum=1)

# --- API ---------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "arena.pagination.Pagination",
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "arena.errors.exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

UPLOAD_RATE = env_str("UPLOAD_RATE", "30/hour")

SPECTACULAR_SETTINGS = {
    "TITLE": "Pinochle Arena API",
    "DESCRIPTION": (
        "Bots, matches, ratings, leagues and duplicate tournaments for the pinochle family "
        "and Pinnacolo. Authenticate with `Authorization: Token <key>` from /api/auth/token/."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Several models have a `status` or `kind`: each choice set gets its model's name.
    "ENUM_NAME_OVERRIDES": {
        "BotVersionStatusEnum": "arena.models.BotVersion.Status",
        "BotVersionKindEnum": "arena.models.BotVersion.Kind",
        "MatchStatusEnum": "arena.models.Match.Status",
        "MatchKindEnum": "arena.models.Match.Kind",
        "SeasonStatusEnum": "leagues.models.Season.Status",
        "RoundStatusEnum": "leagues.models.Round.Status",
        "EventStatusEnum": "leagues.tournaments.models.Event.Status",
        "EventKindEnum": "leagues.tournaments.models.Event.Kind",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO") or "INFO"},
}

# --- security: HTTPS behind the proxy, cookies, Content-Security-Policy --------------------

# ARENA_HTTPS=true: the site is served over HTTPS by a proxy that terminates TLS and says so
# in X-Forwarded-Proto (deploy/nginx/arena.conf; the deployment's files set it). Off, the
# process answers plain HTTP: DEBUG on (make demo), tests and benchmarks on loopback.
ARENA_HTTPS = env_bool("ARENA_HTTPS", False)
if ARENA_HTTPS:
    if DEBUG:
        raise ImproperlyConfigured("ARENA_HTTPS=true is for production: it needs DEBUG off")
    # Django's own bar (check --deploy, security.W009): a short key is guessable offline
    # from any signed cookie or password-reset link.
    if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
        raise ImproperlyConfigured(
            "SECRET_KEY must be at least 50 characters with at least 5 different ones: "
            'generate one with python -c "import secrets; print(secrets.token_urlsafe(50))"'
        )
    # Trusted only because the proxy overwrites the header (never publish gunicorn's port).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600, minimum=1)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# The same policy in every mode, so that the demo and the tests break where production would.
# No inline script or style anywhere; the API docs pages relax it for ReDoc alone
# (arena/api_docs.py).
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
    "csp.middleware.CSPMiddleware",
)
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
    }
}
