"""The task queues: which queue each task and match goes to (``routing``), where a queued
item stands in its queue (``positions``) and what the broker still holds for the re-queue
job (``broker_contents``)."""
