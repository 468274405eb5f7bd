CREATE TABLE `queued_prompts` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`session_id` text NOT NULL,
	`text` text NOT NULL,
	`send_now` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `queued_prompts_id_unique` ON `queued_prompts` (`id`);--> statement-breakpoint
CREATE INDEX `queued_prompts_session_idx` ON `queued_prompts` (`session_id`,`seq`);