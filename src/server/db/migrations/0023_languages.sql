-- Issue 32: the school's default language of the interface, and each person's own choice (null:
-- not chosen; the browser's languages, then the school's default decide). Values are LOCALES keys
-- (src/shared/locales.ts), checked by the contract: a new language needs no migration.
ALTER TABLE "schools" ADD COLUMN "default_locale" varchar(16) DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "locale" varchar(16);--> statement-breakpoint
ALTER TABLE "teachers" ADD COLUMN "locale" varchar(16);