"""The request quotas: the quotas and how a request takes its slots (``throttles``), where
the slots are kept (``slots``) and the rates they are given in (``rates``)."""
