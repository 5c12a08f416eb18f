from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView


class UploadThrottle(UserRateThrottle):
    """Limits bot uploads per player; the rate is ``settings.UPLOAD_RATE``."""

    scope = "uploads"

    def get_rate(self) -> str | None:
        # Read at request time, not import time, so the setting can change under test.
        rate: str | None = settings.UPLOAD_RATE
        return rate

    def allow_request(self, request: Request, view: APIView) -> bool:
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)


class ChallengeThrottle(UploadThrottle):
    """Limits challenge requests per player; the rate is ``settings.CHALLENGE_RATE``."""

    scope = "challenges"

    def get_rate(self) -> str | None:
        rate: str | None = settings.CHALLENGE_RATE
        return rate
