DROP INDEX `clarifications_dedup_idx`;--> statement-breakpoint
CREATE INDEX `clarifications_dedup_idx` ON `clarifications` (`session_id`,`dedup_key`) WHERE dedup_key IS NOT NULL;