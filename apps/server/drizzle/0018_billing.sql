-- Billing: each organization's billing account (provider, subscription
-- period, payment grace, operator overrides, the learner cap's grace
-- period), the notices owners get (usage thresholds once per period, new
-- learners refused, failed payments) with whether they were e-mailed, and
-- the Stripe webhook events already handled. Plans take the ids the pricing
-- page sells (free, team, business) and every organization gets its caps
-- copied from its plan where none were set.
CREATE TABLE "billing_accounts" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"provider" text DEFAULT 'local' NOT NULL,
	"interval" text,
	"status" text DEFAULT 'active' NOT NULL,
	"stripe_customer_id" text,
	"stripe_subscription_id" text,
	"current_period_start" timestamp with time zone,
	"current_period_end" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"payment_method" jsonb,
	"payment_grace_until" timestamp with time zone,
	"learner_cap_reached_at" timestamp with time zone,
	"override_max_learners" integer,
	"override_max_courses" integer,
	"override_max_chatbots" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_accounts_pk" PRIMARY KEY("organization_id","id"),
	CONSTRAINT "billing_accounts_organization_unique" UNIQUE("organization_id"),
	CONSTRAINT "billing_accounts_provider_check" CHECK ("billing_accounts"."provider" in ('local', 'stripe')),
	CONSTRAINT "billing_accounts_status_check" CHECK ("billing_accounts"."status" in ('active', 'past_due', 'canceled')),
	CONSTRAINT "billing_accounts_interval_check" CHECK ("billing_accounts"."interval" is null or "billing_accounts"."interval" in ('month', 'year')),
	CONSTRAINT "billing_accounts_overrides_non_negative" CHECK (coalesce("billing_accounts"."override_max_learners", 0) >= 0 and coalesce("billing_accounts"."override_max_courses", 0) >= 0 and coalesce("billing_accounts"."override_max_chatbots", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "billing_notices" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"kind" text DEFAULT 'usage' NOT NULL,
	"metric" text,
	"threshold" integer DEFAULT 0 NOT NULL,
	"period_start" date NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	"cap" integer DEFAULT 0 NOT NULL,
	"message" text NOT NULL,
	"emailed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_notices_pk" PRIMARY KEY("organization_id","id"),
	CONSTRAINT "billing_notices_once_per_period" UNIQUE("organization_id","kind","metric","threshold","period_start"),
	CONSTRAINT "billing_notices_kind_check" CHECK ("billing_notices"."kind" in ('usage', 'learners_blocked', 'payment_failed')),
	CONSTRAINT "billing_notices_metric_check" CHECK ("billing_notices"."metric" is null or "billing_notices"."metric" in ('learners', 'courses', 'chatbots'))
);
--> statement-breakpoint
CREATE TABLE "billing_webhook_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organizations" DROP CONSTRAINT "organizations_plan_check";--> statement-breakpoint
UPDATE "organizations" SET "plan" = CASE "plan" WHEN 'starter' THEN 'team' WHEN 'pro' THEN 'business' WHEN 'enterprise' THEN 'business' ELSE "plan" END;--> statement-breakpoint
UPDATE "organizations" SET
	"max_learners" = coalesce("max_learners", CASE "plan" WHEN 'team' THEN 2500 WHEN 'business' THEN 25000 ELSE 100 END),
	"max_courses" = coalesce("max_courses", CASE "plan" WHEN 'team' THEN 25 WHEN 'business' THEN 250 ELSE 3 END),
	"max_chatbots" = coalesce("max_chatbots", CASE "plan" WHEN 'team' THEN 5 WHEN 'business' THEN 25 ELSE 1 END);--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD CONSTRAINT "billing_accounts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_notices" ADD CONSTRAINT "billing_notices_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_accounts_stripe_customer_idx" ON "billing_accounts" USING btree ("stripe_customer_id");--> statement-breakpoint
CREATE INDEX "billing_notices_unsent_idx" ON "billing_notices" USING btree ("created_at") WHERE "emailed_at" is null;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_plan_check" CHECK ("organizations"."plan" in ('free', 'team', 'business'));