ALTER TABLE `sessions` ADD `modes` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `config_options` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `available_commands` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `usage` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `title` text;