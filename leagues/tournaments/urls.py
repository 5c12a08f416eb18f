"""Routes under /api/tournaments/."""

from django.urls import URLPattern, URLResolver, path

from leagues.tournaments import api

urlpatterns: list[URLPattern | URLResolver] = [
    path("", api.EventListView.as_view(), name="tournament-list"),
    path("ratings/", api.HumanRatingListView.as_view(), name="tournament-ratings"),
    path("<int:event_id>/", api.EventDetailView.as_view(), name="tournament-detail"),
    path("<int:event_id>/entries/", api.EntryListView.as_view(), name="tournament-entries"),
    path(
        "<int:event_id>/entries/<int:entry_id>/",
        api.EntryDetailView.as_view(),
        name="tournament-entry",
    ),
    path("<int:event_id>/start/", api.EventStartView.as_view(), name="tournament-start"),
    path("<int:event_id>/finish/", api.EventFinishView.as_view(), name="tournament-finish"),
    path("<int:event_id>/rounds/next/", api.RoundNextView.as_view(), name="tournament-round-next"),
    path(
        "<int:event_id>/rounds/close/", api.RoundCloseView.as_view(), name="tournament-round-close"
    ),
    path("<int:event_id>/movement/", api.MovementView.as_view(), name="tournament-movement"),
    path("<int:event_id>/results/", api.ResultListView.as_view(), name="tournament-results"),
    path(
        "<int:event_id>/results/<int:result_id>/",
        api.ResultDetailView.as_view(),
        name="tournament-result",
    ),
    path(
        "<int:event_id>/corrections/",
        api.CorrectionListView.as_view(),
        name="tournament-corrections",
    ),
    path("<int:event_id>/standings/", api.StandingsView.as_view(), name="tournament-standings"),
    path("<int:event_id>/scorecard/", api.ScorecardView.as_view(), name="tournament-scorecard"),
    path("<int:event_id>/boards/<int:number>/", api.BoardView.as_view(), name="tournament-board"),
    path(
        "<int:event_id>/hand-records/",
        api.HandRecordsView.as_view(),
        name="tournament-hand-records",
    ),
    path(
        "<int:event_id>/hand-records.pdf",
        api.HandRecordsPdfView.as_view(),
        name="tournament-hand-records-pdf",
    ),
    path(
        "<int:event_id>/verification/",
        api.VerificationView.as_view(),
        name="tournament-verification",
    ),
]
