CREATE TABLE "auth_account" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_session" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"token" text NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_session_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "auth_user" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_user_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "auth_verification" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text DEFAULT 'team_member' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"token_hash" text NOT NULL,
	"inviter_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" uuid,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invitations_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "invitations_status_check" CHECK ("invitations"."status" in ('pending', 'accepted', 'revoked')),
	CONSTRAINT "invitations_role_check" CHECK ("invitations"."role" in ('owner', 'team_member')),
	CONSTRAINT "invitations_email_lowercase" CHECK ("invitations"."email" = lower("invitations"."email")),
	CONSTRAINT "invitations_accepted_has_time" CHECK ("invitations"."status" <> 'accepted' or "invitations"."accepted_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"subdomain" text NOT NULL,
	"owner_id" uuid,
	"plan" text DEFAULT 'free' NOT NULL,
	"max_learners" integer,
	"max_courses" integer,
	"max_chatbots" integer,
	"auto_register" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organizations_subdomain_unique" UNIQUE("subdomain"),
	CONSTRAINT "organizations_plan_check" CHECK ("organizations"."plan" in ('free', 'starter', 'pro', 'enterprise')),
	CONSTRAINT "organizations_subdomain_format" CHECK (char_length("organizations"."subdomain") between 3 and 50 and "organizations"."subdomain" ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
	CONSTRAINT "organizations_caps_non_negative" CHECK (coalesce("organizations"."max_learners", 0) >= 0 and coalesce("organizations"."max_courses", 0) >= 0 and coalesce("organizations"."max_chatbots", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "user_organizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"role" text NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_organizations_user_org_unique" UNIQUE("user_id","organization_id"),
	CONSTRAINT "user_organizations_role_check" CHECK ("user_organizations"."role" in ('owner', 'team_member'))
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"organization_id" uuid,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "users_role_check" CHECK ("users"."role" in ('owner', 'team_member'))
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"scope" text DEFAULT 'ingest' NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash"),
	CONSTRAINT "api_keys_scope_check" CHECK ("api_keys"."scope" in ('ingest', 'full'))
);
--> statement-breakpoint
CREATE TABLE "broadcasts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"message" text,
	"author_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "course_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"learner_id" uuid NOT NULL,
	"client_run_id" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_runs_org_id_unique" UNIQUE("organization_id","id"),
	CONSTRAINT "course_runs_client_run_unique" UNIQUE("organization_id","course_id","learner_id","client_run_id")
);
--> statement-breakpoint
CREATE TABLE "courses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"course_title" text NOT NULL,
	"description" text,
	"external_course_id" text,
	"broadcast_message" text,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "courses_org_id_unique" UNIQUE("organization_id","id"),
	CONSTRAINT "courses_deleted_at_matches_flag" CHECK (("courses"."is_deleted") = ("courses"."deleted_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "learners" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "learners_org_id_unique" UNIQUE("organization_id","id"),
	CONSTRAINT "learners_email_lowercase" CHECK ("learners"."email" = lower("learners"."email"))
);
--> statement-breakpoint
CREATE TABLE "course_variable_mappings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"source_variable_name" text NOT NULL,
	"destination_variable_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_variable_mappings_source_unique" UNIQUE("organization_id","course_id","source_variable_name")
);
--> statement-breakpoint
CREATE TABLE "learner_variable_values" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"variable_id" uuid NOT NULL,
	"learner_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"course_run_id" uuid,
	"value" text,
	"value_number" double precision,
	"value_boolean" boolean,
	"value_date" timestamp with time zone,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "variables" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"name" text NOT NULL,
	"title" text,
	"description" text,
	"data_type" text DEFAULT 'text' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "variables_org_course_name_unique" UNIQUE("organization_id","course_id","name"),
	CONSTRAINT "variables_org_course_id_unique" UNIQUE("organization_id","course_id","id"),
	CONSTRAINT "variables_data_type_check" CHECK ("variables"."data_type" in ('number', 'text', 'boolean', 'date'))
);
--> statement-breakpoint
CREATE TABLE "course_run_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"course_run_id" uuid,
	"question_id" uuid NOT NULL,
	"learner_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"slide_number" integer,
	"question_number" integer,
	"question_text" text,
	"answer_choice" text,
	"correct" boolean,
	"correct_answer" text,
	"points_assigned" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"interaction_id" text NOT NULL,
	"slide_number" integer,
	"question_number" integer,
	"question_text" text,
	"correct_answer" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "questions_org_course_interaction_unique" UNIQUE("organization_id","course_id","interaction_id"),
	CONSTRAINT "questions_org_course_id_unique" UNIQUE("organization_id","course_id","id")
);
--> statement-breakpoint
CREATE TABLE "ingested_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"api_key_id" uuid,
	"course_id" uuid,
	"learner_id" uuid,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ingested_events_org_event_unique" UNIQUE("organization_id","event_id"),
	CONSTRAINT "ingested_events_type_check" CHECK ("ingested_events"."type" in ('course.started', 'variable.set', 'question.answered', 'course.completed')),
	CONSTRAINT "ingested_events_event_id_length" CHECK (char_length("ingested_events"."event_id") between 1 and 128)
);
--> statement-breakpoint
CREATE TABLE "custom_report_question_identifiers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"report_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"slide_number" integer,
	"question_number" integer,
	"question_text" text,
	"display_order" integer DEFAULT 0 NOT NULL,
	"display_name" text,
	"comparison_type" text DEFAULT 'by_learner' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_report_question_identifiers_comparison_check" CHECK ("custom_report_question_identifiers"."comparison_type" in ('by_learner', 'by_course', 'over_time'))
);
--> statement-breakpoint
CREATE TABLE "custom_report_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"report_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"display_name" text,
	"comparison_type" text DEFAULT 'by_learner' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_report_questions_report_question_unique" UNIQUE("report_id","question_id"),
	CONSTRAINT "custom_report_questions_comparison_check" CHECK ("custom_report_questions"."comparison_type" in ('by_learner', 'by_course', 'over_time'))
);
--> statement-breakpoint
CREATE TABLE "custom_report_variables" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"report_id" uuid NOT NULL,
	"variable_id" uuid NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"display_name" text,
	"comparison_type" text DEFAULT 'by_learner' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_report_variables_report_variable_unique" UNIQUE("report_id","variable_id"),
	CONSTRAINT "custom_report_variables_comparison_check" CHECK ("custom_report_variables"."comparison_type" in ('by_learner', 'by_course', 'over_time'))
);
--> statement-breakpoint
CREATE TABLE "custom_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"report_type" text DEFAULT 'table' NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"public_share_token" text,
	"view_count" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_reports_public_share_token_unique" UNIQUE("public_share_token"),
	CONSTRAINT "custom_reports_report_type_check" CHECK ("custom_reports"."report_type" in ('table', 'bar', 'line', 'pie', 'leaderboard', 'comparison')),
	CONSTRAINT "custom_reports_view_count_non_negative" CHECK ("custom_reports"."view_count" >= 0),
	CONSTRAINT "custom_reports_public_has_token" CHECK (not "custom_reports"."is_public" or "custom_reports"."public_share_token" is not null)
);
--> statement-breakpoint
CREATE TABLE "shared_views" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"variable_id" uuid,
	"question_id" uuid,
	"chatbot_variable_id" uuid,
	"token" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shared_views_token_unique" UNIQUE("token"),
	CONSTRAINT "shared_views_target_unique" UNIQUE NULLS NOT DISTINCT("organization_id","kind","variable_id","question_id","chatbot_variable_id"),
	CONSTRAINT "shared_views_kind_check" CHECK ("shared_views"."kind" in ('variable', 'question', 'chatbot_variable')),
	CONSTRAINT "shared_views_target_matches_kind" CHECK (("shared_views"."kind" = 'variable') = ("shared_views"."variable_id" is not null)
        and ("shared_views"."kind" = 'question') = ("shared_views"."question_id" is not null)
        and ("shared_views"."kind" = 'chatbot_variable') = ("shared_views"."chatbot_variable_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "ai_summaries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"source_kind" text NOT NULL,
	"source_key" text NOT NULL,
	"engine" text NOT NULL,
	"model" text,
	"content" text NOT NULL,
	"statistics" jsonb,
	"generated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_summaries_source_unique" UNIQUE("organization_id","source_kind","source_key"),
	CONSTRAINT "ai_summaries_source_kind_check" CHECK ("ai_summaries"."source_kind" in ('variable', 'course_variable', 'chatbot_variable', 'question')),
	CONSTRAINT "ai_summaries_engine_check" CHECK ("ai_summaries"."engine" in ('builtin', 'llm'))
);
--> statement-breakpoint
CREATE TABLE "actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"action_type" text NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pipelines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"nodes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"edges" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"engine" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_messages_role_check" CHECK ("chat_messages"."role" in ('user', 'assistant', 'system')),
	CONSTRAINT "chat_messages_engine_check" CHECK ("chat_messages"."engine" in ('builtin', 'llm'))
);
--> statement-breakpoint
CREATE TABLE "chat_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"chatbot_id" uuid NOT NULL,
	"learner_id" uuid,
	"user_id" uuid,
	"title" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chatbot_variable_mappings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"chatbot_variable_id" uuid NOT NULL,
	"destination_variable_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chatbot_variable_mappings_unique" UNIQUE("organization_id","chatbot_variable_id","destination_variable_id")
);
--> statement-breakpoint
CREATE TABLE "chatbot_variables" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"chatbot_id" uuid NOT NULL,
	"name" text NOT NULL,
	"title" text,
	"description" text,
	"data_type" text DEFAULT 'text' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chatbot_variables_org_chatbot_name_unique" UNIQUE("organization_id","chatbot_id","name"),
	CONSTRAINT "chatbot_variables_data_type_check" CHECK ("chatbot_variables"."data_type" in ('number', 'text', 'boolean', 'date'))
);
--> statement-breakpoint
CREATE TABLE "chatbots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"instructions" text DEFAULT '' NOT NULL,
	"knowledge" text DEFAULT '' NOT NULL,
	"welcome_message" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "learner_chatbot_variable_values" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"chatbot_variable_id" uuid NOT NULL,
	"learner_id" uuid NOT NULL,
	"chat_session_id" uuid,
	"value" text,
	"value_number" double precision,
	"value_boolean" boolean,
	"value_date" timestamp with time zone,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"actor_user_id" uuid,
	"kind" text NOT NULL,
	"subject_type" text,
	"subject_id" text,
	"summary" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_funnels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_settings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_settings_organization_unique" UNIQUE("organization_id")
);
--> statement-breakpoint
ALTER TABLE "auth_account" ADD CONSTRAINT "auth_account_user_id_auth_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_session" ADD CONSTRAINT "auth_session_user_id_auth_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_inviter_id_auth_user_id_fk" FOREIGN KEY ("inviter_id") REFERENCES "public"."auth_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_accepted_by_auth_user_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."auth_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_owner_id_auth_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."auth_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_organizations" ADD CONSTRAINT "user_organizations_user_id_auth_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_organizations" ADD CONSTRAINT "user_organizations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_user_id_auth_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_auth_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."auth_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_author_id_auth_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."auth_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_runs" ADD CONSTRAINT "course_runs_course_fk" FOREIGN KEY ("organization_id","course_id") REFERENCES "public"."courses"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_runs" ADD CONSTRAINT "course_runs_learner_fk" FOREIGN KEY ("organization_id","learner_id") REFERENCES "public"."learners"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learners" ADD CONSTRAINT "learners_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_variable_mappings" ADD CONSTRAINT "course_variable_mappings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_variable_mappings" ADD CONSTRAINT "course_variable_mappings_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_variable_mappings" ADD CONSTRAINT "course_variable_mappings_destination_variable_id_variables_id_fk" FOREIGN KEY ("destination_variable_id") REFERENCES "public"."variables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learner_variable_values" ADD CONSTRAINT "learner_variable_values_variable_fk" FOREIGN KEY ("organization_id","course_id","variable_id") REFERENCES "public"."variables"("organization_id","course_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learner_variable_values" ADD CONSTRAINT "learner_variable_values_learner_fk" FOREIGN KEY ("organization_id","learner_id") REFERENCES "public"."learners"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learner_variable_values" ADD CONSTRAINT "learner_variable_values_course_run_fk" FOREIGN KEY ("organization_id","course_run_id") REFERENCES "public"."course_runs"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variables" ADD CONSTRAINT "variables_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variables" ADD CONSTRAINT "variables_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_run_questions" ADD CONSTRAINT "course_run_questions_question_fk" FOREIGN KEY ("organization_id","course_id","question_id") REFERENCES "public"."questions"("organization_id","course_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_run_questions" ADD CONSTRAINT "course_run_questions_learner_fk" FOREIGN KEY ("organization_id","learner_id") REFERENCES "public"."learners"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_run_questions" ADD CONSTRAINT "course_run_questions_course_run_fk" FOREIGN KEY ("organization_id","course_run_id") REFERENCES "public"."course_runs"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingested_events" ADD CONSTRAINT "ingested_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingested_events" ADD CONSTRAINT "ingested_events_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingested_events" ADD CONSTRAINT "ingested_events_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingested_events" ADD CONSTRAINT "ingested_events_learner_id_learners_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."learners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_report_question_identifiers" ADD CONSTRAINT "custom_report_question_identifiers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_report_question_identifiers" ADD CONSTRAINT "custom_report_question_identifiers_report_id_custom_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."custom_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_report_question_identifiers" ADD CONSTRAINT "custom_report_question_identifiers_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_report_questions" ADD CONSTRAINT "custom_report_questions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_report_questions" ADD CONSTRAINT "custom_report_questions_report_id_custom_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."custom_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_report_questions" ADD CONSTRAINT "custom_report_questions_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_report_variables" ADD CONSTRAINT "custom_report_variables_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_report_variables" ADD CONSTRAINT "custom_report_variables_report_id_custom_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."custom_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_report_variables" ADD CONSTRAINT "custom_report_variables_variable_id_variables_id_fk" FOREIGN KEY ("variable_id") REFERENCES "public"."variables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_reports" ADD CONSTRAINT "custom_reports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_reports" ADD CONSTRAINT "custom_reports_created_by_auth_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."auth_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shared_views" ADD CONSTRAINT "shared_views_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shared_views" ADD CONSTRAINT "shared_views_variable_id_variables_id_fk" FOREIGN KEY ("variable_id") REFERENCES "public"."variables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shared_views" ADD CONSTRAINT "shared_views_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shared_views" ADD CONSTRAINT "shared_views_chatbot_variable_id_chatbot_variables_id_fk" FOREIGN KEY ("chatbot_variable_id") REFERENCES "public"."chatbot_variables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shared_views" ADD CONSTRAINT "shared_views_created_by_auth_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."auth_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_summaries" ADD CONSTRAINT "ai_summaries_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_created_by_auth_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."auth_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipelines" ADD CONSTRAINT "pipelines_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipelines" ADD CONSTRAINT "pipelines_created_by_auth_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."auth_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_session_id_chat_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."chat_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD CONSTRAINT "chat_sessions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD CONSTRAINT "chat_sessions_chatbot_id_chatbots_id_fk" FOREIGN KEY ("chatbot_id") REFERENCES "public"."chatbots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD CONSTRAINT "chat_sessions_learner_id_learners_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."learners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD CONSTRAINT "chat_sessions_user_id_auth_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chatbot_variable_mappings" ADD CONSTRAINT "chatbot_variable_mappings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chatbot_variable_mappings" ADD CONSTRAINT "chatbot_variable_mappings_chatbot_variable_id_chatbot_variables_id_fk" FOREIGN KEY ("chatbot_variable_id") REFERENCES "public"."chatbot_variables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chatbot_variable_mappings" ADD CONSTRAINT "chatbot_variable_mappings_destination_variable_id_variables_id_fk" FOREIGN KEY ("destination_variable_id") REFERENCES "public"."variables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chatbot_variables" ADD CONSTRAINT "chatbot_variables_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chatbot_variables" ADD CONSTRAINT "chatbot_variables_chatbot_id_chatbots_id_fk" FOREIGN KEY ("chatbot_id") REFERENCES "public"."chatbots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chatbots" ADD CONSTRAINT "chatbots_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chatbots" ADD CONSTRAINT "chatbots_created_by_auth_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."auth_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learner_chatbot_variable_values" ADD CONSTRAINT "learner_chatbot_variable_values_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learner_chatbot_variable_values" ADD CONSTRAINT "learner_chatbot_variable_values_chatbot_variable_id_chatbot_variables_id_fk" FOREIGN KEY ("chatbot_variable_id") REFERENCES "public"."chatbot_variables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learner_chatbot_variable_values" ADD CONSTRAINT "learner_chatbot_variable_values_learner_id_learners_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."learners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learner_chatbot_variable_values" ADD CONSTRAINT "learner_chatbot_variable_values_chat_session_id_chat_sessions_id_fk" FOREIGN KEY ("chat_session_id") REFERENCES "public"."chat_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_events" ADD CONSTRAINT "activity_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_events" ADD CONSTRAINT "activity_events_actor_user_id_auth_user_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."auth_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_funnels" ADD CONSTRAINT "analytics_funnels_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_funnels" ADD CONSTRAINT "analytics_funnels_created_by_auth_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."auth_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_settings" ADD CONSTRAINT "analytics_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_account_user_idx" ON "auth_account" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_account_provider_account_unique" ON "auth_account" USING btree ("provider_id","account_id");--> statement-breakpoint
CREATE INDEX "auth_session_user_idx" ON "auth_session" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "auth_verification_identifier_idx" ON "auth_verification" USING btree ("identifier");--> statement-breakpoint
CREATE INDEX "invitations_org_status_idx" ON "invitations" USING btree ("organization_id","status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_one_pending_per_email" ON "invitations" USING btree ("organization_id","email") WHERE "invitations"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "organizations_owner_idx" ON "organizations" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_organizations_one_primary_per_user" ON "user_organizations" USING btree ("user_id") WHERE "user_organizations"."is_primary";--> statement-breakpoint
CREATE INDEX "user_organizations_org_role_idx" ON "user_organizations" USING btree ("organization_id","role");--> statement-breakpoint
CREATE INDEX "users_organization_idx" ON "users" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "api_keys_org_created_idx" ON "api_keys" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "broadcasts_org_course_created_idx" ON "broadcasts" USING btree ("organization_id","course_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "course_runs_org_course_created_idx" ON "course_runs" USING btree ("organization_id","course_id","created_at");--> statement-breakpoint
CREATE INDEX "course_runs_org_learner_created_idx" ON "course_runs" USING btree ("organization_id","learner_id","created_at");--> statement-breakpoint
CREATE INDEX "course_runs_org_created_idx" ON "course_runs" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "courses_org_external_id_unique" ON "courses" USING btree ("organization_id","external_course_id") WHERE not "courses"."is_deleted";--> statement-breakpoint
CREATE INDEX "courses_org_created_idx" ON "courses" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "learners_org_email_unique" ON "learners" USING btree ("organization_id","email");--> statement-breakpoint
CREATE INDEX "learners_org_name_idx" ON "learners" USING btree ("organization_id","name","id");--> statement-breakpoint
CREATE INDEX "learners_org_name_search_idx" ON "learners" USING btree ("organization_id",lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "learners_org_email_search_idx" ON "learners" USING btree ("organization_id","email" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "learners_org_created_idx" ON "learners" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "course_variable_mappings_destination_idx" ON "course_variable_mappings" USING btree ("organization_id","destination_variable_id");--> statement-breakpoint
CREATE INDEX "learner_variable_values_latest_idx" ON "learner_variable_values" USING btree ("organization_id","variable_id","learner_id","recorded_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "learner_variable_values_variable_time_idx" ON "learner_variable_values" USING btree ("organization_id","variable_id","recorded_at");--> statement-breakpoint
CREATE INDEX "learner_variable_values_learner_idx" ON "learner_variable_values" USING btree ("organization_id","learner_id","course_id");--> statement-breakpoint
CREATE INDEX "learner_variable_values_course_run_idx" ON "learner_variable_values" USING btree ("organization_id","course_run_id");--> statement-breakpoint
CREATE INDEX "variables_org_name_idx" ON "variables" USING btree ("organization_id","name");--> statement-breakpoint
CREATE INDEX "course_run_questions_question_idx" ON "course_run_questions" USING btree ("organization_id","question_id","created_at");--> statement-breakpoint
CREATE INDEX "course_run_questions_learner_idx" ON "course_run_questions" USING btree ("organization_id","learner_id","created_at");--> statement-breakpoint
CREATE INDEX "course_run_questions_course_idx" ON "course_run_questions" USING btree ("organization_id","course_id","created_at");--> statement-breakpoint
CREATE INDEX "course_run_questions_course_run_idx" ON "course_run_questions" USING btree ("organization_id","course_run_id");--> statement-breakpoint
CREATE INDEX "ingested_events_org_received_idx" ON "ingested_events" USING btree ("organization_id","received_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "custom_report_question_identifiers_report_idx" ON "custom_report_question_identifiers" USING btree ("report_id","display_order");--> statement-breakpoint
CREATE INDEX "custom_report_question_identifiers_org_course_idx" ON "custom_report_question_identifiers" USING btree ("organization_id","course_id");--> statement-breakpoint
CREATE INDEX "custom_report_questions_org_question_idx" ON "custom_report_questions" USING btree ("organization_id","question_id");--> statement-breakpoint
CREATE INDEX "custom_report_variables_org_variable_idx" ON "custom_report_variables" USING btree ("organization_id","variable_id");--> statement-breakpoint
CREATE INDEX "custom_reports_org_created_idx" ON "custom_reports" USING btree ("organization_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "actions_org_created_idx" ON "actions" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "pipelines_org_created_idx" ON "pipelines" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "chat_messages_org_session_created_idx" ON "chat_messages" USING btree ("organization_id","session_id","created_at");--> statement-breakpoint
CREATE INDEX "chat_sessions_org_chatbot_created_idx" ON "chat_sessions" USING btree ("organization_id","chatbot_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "chat_sessions_org_learner_idx" ON "chat_sessions" USING btree ("organization_id","learner_id");--> statement-breakpoint
CREATE INDEX "chatbot_variable_mappings_destination_idx" ON "chatbot_variable_mappings" USING btree ("organization_id","destination_variable_id");--> statement-breakpoint
CREATE INDEX "chatbot_variables_org_name_idx" ON "chatbot_variables" USING btree ("organization_id","name");--> statement-breakpoint
CREATE INDEX "chatbots_org_created_idx" ON "chatbots" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "learner_chatbot_variable_values_latest_idx" ON "learner_chatbot_variable_values" USING btree ("organization_id","chatbot_variable_id","learner_id","recorded_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "learner_chatbot_variable_values_variable_time_idx" ON "learner_chatbot_variable_values" USING btree ("organization_id","chatbot_variable_id","recorded_at");--> statement-breakpoint
CREATE INDEX "learner_chatbot_variable_values_learner_idx" ON "learner_chatbot_variable_values" USING btree ("organization_id","learner_id");--> statement-breakpoint
CREATE INDEX "activity_events_org_created_idx" ON "activity_events" USING btree ("organization_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "activity_events_org_kind_created_idx" ON "activity_events" USING btree ("organization_id","kind","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "analytics_funnels_org_created_idx" ON "analytics_funnels" USING btree ("organization_id","created_at");