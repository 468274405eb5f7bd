CREATE TABLE `clarifications` (
	`pending_id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`task_id` text NOT NULL,
	`turn_id` text,
	`message_id` text NOT NULL,
	`source` text NOT NULL,
	`execution_id` text,
	`tool_call_id` text,
	`message` text NOT NULL,
	`questions` text NOT NULL,
	`deadline` text,
	`status` text NOT NULL,
	`resolution` text,
	`dedup_key` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`turn_id`) REFERENCES `turns`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `clarifications_session_status_idx` ON `clarifications` (`session_id`,`status`);--> statement-breakpoint
CREATE INDEX `clarifications_execution_idx` ON `clarifications` (`execution_id`,`status`);--> statement-breakpoint
CREATE INDEX `clarifications_dedup_idx` ON `clarifications` (`session_id`,`dedup_key`);--> statement-breakpoint
CREATE TABLE `notification_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`enabled` integer NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
