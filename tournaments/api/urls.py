"""Routes under /api/tournaments/."""

from django.urls import URLPattern, URLResolver, path

from tournaments.api import views as api

app_name = "tournaments_api"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", api.EventListView.as_view(), name="list"),
    path("ratings/", api.HumanRatingListView.as_view(), name="ratings"),
    path("<int:event_id>/", api.EventDetailView.as_view(), name="detail"),
    path("<int:event_id>/entries/", api.EntryListView.as_view(), name="entries"),
    path(
        "<int:event_id>/entries/<int:entry_id>/",
        api.EntryDetailView.as_view(),
        name="entry",
    ),
    path("<int:event_id>/start/", api.EventStartView.as_view(), name="start"),
    path("<int:event_id>/finish/", api.EventFinishView.as_view(), name="finish"),
    path("<int:event_id>/rounds/next/", api.RoundNextView.as_view(), name="round-next"),
    path("<int:event_id>/rounds/close/", api.RoundCloseView.as_view(), name="round-close"),
    path("<int:event_id>/movement/", api.MovementView.as_view(), name="movement"),
    path("<int:event_id>/results/", api.ResultListView.as_view(), name="results"),
    path(
        "<int:event_id>/results/<int:result_id>/",
        api.ResultDetailView.as_view(),
        name="result",
    ),
    path(
        "<int:event_id>/results/pending/",
        api.PendingResultListView.as_view(),
        name="results-pending",
    ),
    path(
        "<int:event_id>/results/<int:result_id>/confirm/",
        api.ResultConfirmView.as_view(),
        name="result-confirm",
    ),
    path(
        "<int:event_id>/results/<int:result_id>/reject/",
        api.ResultRejectView.as_view(),
        name="result-reject",
    ),
    path("<int:event_id>/reviews/", api.ReviewListView.as_view(), name="reviews"),
    path(
        "<int:event_id>/corrections/",
        api.CorrectionListView.as_view(),
        name="corrections",
    ),
    path("<int:event_id>/standings/", api.StandingsView.as_view(), name="standings"),
    path("<int:event_id>/scorecard/", api.ScorecardView.as_view(), name="scorecard"),
    path("<int:event_id>/boards/<int:number>/", api.BoardView.as_view(), name="board"),
    path(
        "<int:event_id>/hand-records/",
        api.HandRecordsView.as_view(),
        name="hand-records",
    ),
    path(
        "<int:event_id>/hand-records.pdf",
        api.HandRecordsPdfView.as_view(),
        name="hand-records-pdf",
    ),
    path(
        "<int:event_id>/verification/",
        api.VerificationView.as_view(),
        name="verification",
    ),
]
