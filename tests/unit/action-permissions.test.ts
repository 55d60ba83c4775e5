// Every dashboard server action, called as each role: allowed roles get past authorization, the others get
// the refusal and touch nothing (the database is a trap here). The expected table is written out by hand,
// apart from lib/accounts/permissions.ts, so a change to either shows up. So is the list of actions that move
// money or grant access (sudo mode): each asks for the password again when the session has not given it in
// the last 10 minutes, records the attempt and runs nothing; every other action never asks.
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { UserRole } from "@/db/enums";

const state = vi.hoisted(() => ({
  role: "owner",
  databaseTouched: false,
  /** Whether the database may be reached (the sudo tests' standing and record): otherwise it is a trap. */
  databaseOpen: false,
  recentPassword: false,
  recorded: [] as string[],
  environmentKind: "sandbox",
}));

vi.mock("@/app/_lib/session", () => ({
  SECURITY_PATH: "/dashboard/settings/security",
  requireMerchantSession: () =>
    Promise.resolve({
      userId: 1,
      merchantId: 1,
      email: "member@example.test",
      name: "Member",
      role: state.role,
      sessionKey: "session-key",
      environment: { id: 1, kind: state.environmentKind, name: "Test" },
    }),
}));
vi.mock("@/db/client", () => ({
  getDb: () => {
    if (state.databaseOpen) return {};
    state.databaseTouched = true;
    throw new Error("database touched");
  },
}));
vi.mock("@/lib/accounts/reauthentication", () => ({
  reauthenticationStanding: () => Promise.resolve({ recent: state.recentPassword, secondFactor: false }),
}));
vi.mock("@/lib/security/history", async (original) => ({
  ...(await original<object>()),
  recordSecurityEvent: (_db: unknown, _merchant: number, _by: unknown, action: string) => {
    state.recorded.push(action);
    return Promise.resolve();
  },
}));
// With read replicas configured, an action records the merchant's write position afterwards: not here.
vi.mock("@/db/replicas", () => ({ recordMerchantWrite: () => Promise.resolve() }));
vi.mock("@/app/_lib/auth", () => ({ signOut: () => Promise.resolve(), signIn: () => Promise.resolve() }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("next/navigation", () => ({
  redirect: () => {
    throw new Error("redirected");
  },
}));

const modules = {
  apiKeys: await import("@/app/(dashboard)/dashboard/api-keys/actions"),
  payments: await import("@/app/(dashboard)/dashboard/payments/actions"),
  webhooks: await import("@/app/(dashboard)/dashboard/webhooks/actions"),
  inboxes: await import("@/app/(dashboard)/dashboard/webhooks/inbox-actions"),
  settings: await import("@/app/(dashboard)/dashboard/settings/actions"),
  security: await import("@/app/(dashboard)/dashboard/settings/security/actions"),
  team: await import("@/app/(dashboard)/dashboard/team/actions"),
  payouts: await import("@/app/(dashboard)/dashboard/payouts/actions"),
  payoutSettings: await import("@/app/(dashboard)/dashboard/settings/payouts/actions"),
  processorSettings: await import("@/app/(dashboard)/dashboard/settings/processor/actions"),
  sandboxes: await import("@/app/(dashboard)/dashboard/settings/sandboxes/actions"),
  disputes: await import("@/app/(dashboard)/dashboard/disputes/actions"),
};

const ALL: UserRole[] = ["owner", "developer", "viewer"];
const WRITERS: UserRole[] = ["owner", "developer"];
const OWNERS: UserRole[] = ["owner"];

const expected: Record<string, Record<string, UserRole[]>> = {
  apiKeys: { generateApiToken: WRITERS, revokeToken: WRITERS, rollToken: WRITERS },
  payments: {
    createTestPayment: WRITERS,
    settle: WRITERS,
    refundPayment: WRITERS,
    cancelPendingPayment: WRITERS,
    settleTestRefund: WRITERS,
  },
  webhooks: {
    addEndpoint: WRITERS,
    editEndpoint: WRITERS,
    toggleEndpoint: WRITERS,
    removeEndpoint: WRITERS,
    revealSecret: WRITERS,
    rotateSecret: WRITERS,
    sendTest: WRITERS,
    resend: WRITERS,
    retryNow: WRITERS,
    recoverFailed: WRITERS,
    addInbox: WRITERS,
  },
  inboxes: { setInboxAnswer: WRITERS, debugSignature: ALL },
  settings: { saveDefaultCurrency: OWNERS, saveReportTimezone: OWNERS },
  security: {
    beginEnrolment: ALL,
    confirmEnrolment: ALL,
    turnOffTwoFactor: ALL,
    saveTwoFactorRequirement: OWNERS,
    savePassword: ALL,
    signOutOtherSessions: ALL,
    signOutSession: ALL,
    // After a password change, the keys made in the last day: revoking is protective, no password asked.
    revokeRecentKeys: WRITERS,
  },
  team: { invite: OWNERS, revokeInvite: OWNERS, changeRole: OWNERS, removeFromTeam: OWNERS, leaveTeam: ALL },
  // Money leaving for the bank, and where it goes: owners only.
  payouts: { payOut: OWNERS, cancelPayoutAction: OWNERS },
  payoutSettings: { savePayoutAccount: OWNERS, savePayoutSchedule: OWNERS },
  // Who takes live money, with the merchant's key at the processor: owners only.
  processorSettings: { connectProcessorAction: OWNERS },
  // Whole environments made and deleted, and the keys that make them: owners only.
  sandboxes: {
    createSandboxAction: OWNERS,
    renameSandboxAction: OWNERS,
    deleteSandboxAction: OWNERS,
    advanceClockAction: OWNERS,
    createAccountKeyAction: OWNERS,
  },
  disputes: { saveEvidenceAction: WRITERS, acceptDisputeAction: WRITERS },
};

const REFUSAL = /^Your role \((Owner|Developer|Viewer)\) cannot do this\./;

/** The actions that move money or grant access: each needs the password again (sudo mode). */
const SENSITIVE: Record<string, string[]> = {
  apiKeys: ["generateApiToken", "rollToken"],
  webhooks: ["revealSecret", "rotateSecret"],
  security: ["beginEnrolment", "turnOffTwoFactor", "saveTwoFactorRequirement"],
  team: ["invite", "revokeInvite", "changeRole", "removeFromTeam"],
  payoutSettings: ["savePayoutAccount"],
  processorSettings: ["connectProcessorAction"],
  sandboxes: ["createAccountKeyAction"],
};

beforeEach(() => {
  state.databaseTouched = false;
  state.databaseOpen = false;
  state.recentPassword = false;
  state.recorded = [];
});

describe("every dashboard server action checks the caller's role", () => {
  it("the table covers every exported action", () => {
    for (const [name, module] of Object.entries(modules)) {
      const actions = Object.entries(module)
        .filter(([, value]) => typeof value === "function")
        .map(([key]) => key)
        .sort();
      expect(actions, name).toEqual(Object.keys(expected[name]!).sort());
    }
  });

  for (const [moduleName, actions] of Object.entries(expected))
    for (const [actionName, allowed] of Object.entries(actions))
      for (const role of ALL)
        it(`${actionName} as ${role}: ${allowed.includes(role) ? "allowed" : "refused"}`, async () => {
          state.role = role;
          const action = (
            modules as unknown as Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>
          )[moduleName]![actionName]!;
          const formData = new FormData();
          const outcome = await action({}, formData).then(
            (result) => result as { message?: string },
            (error: unknown) => ({ thrown: String(error) }),
          );
          const refused = "message" in outcome && REFUSAL.test(outcome.message ?? "");
          if (allowed.includes(role)) expect(refused, JSON.stringify(outcome)).toBe(false);
          else {
            expect(Object.keys(outcome)).toEqual(["message"]);
            expect((outcome as { message: string }).message).toMatch(REFUSAL);
            expect(state.databaseTouched).toBe(false);
          }
        });
});

describe("every action that moves money or grants access asks for the password again (sudo mode)", () => {
  for (const [moduleName, actions] of Object.entries(expected))
    for (const [actionName, allowed] of Object.entries(actions)) {
      const sensitive = SENSITIVE[moduleName]?.includes(actionName) ?? false;
      it(`${actionName}: ${sensitive ? "asks, records the attempt and runs nothing" : "never asks"}`, async () => {
        state.role = allowed[0]!;
        state.databaseOpen = true;
        const action = (
          modules as unknown as Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>
        )[moduleName]![actionName]!;
        const outcome = await action({}, new FormData()).then(
          (result) => result as { reauthenticate?: unknown },
          (error: unknown) => ({ thrown: String(error) }),
        );
        if (sensitive) {
          expect(outcome).toMatchObject({ reauthenticate: { secondFactor: false } });
          expect(state.recorded).toEqual(["user.reauthentication_required"]);
        } else {
          expect("reauthenticate" in outcome).toBe(false);
          expect(state.recorded).not.toContain("user.reauthentication_required");
        }
      });
    }

  it("with the password given in the last 10 minutes, a sensitive action runs", async () => {
    state.role = "owner";
    state.recentPassword = true;
    state.databaseOpen = true;
    // The work itself runs (and fails on this test's empty database), with no cue and no record of one.
    const outcome = await modules.team.invite({}, new FormData()).then(
      (result) => result as object,
      (error: unknown) => ({ thrown: String(error) }),
    );
    expect(outcome).not.toHaveProperty("reauthenticate");
    expect(state.recorded).toEqual([]);
  });
});

describe("live has no test payments (DESIGN.md: test helpers do not exist in live)", () => {
  it("refuses to make, settle or settle a refund of a test payment in live, touching nothing", async () => {
    state.role = "owner";
    state.environmentKind = "live";
    try {
      for (const action of [
        modules.payments.createTestPayment,
        modules.payments.settle,
        modules.payments.settleTestRefund,
      ]) {
        const outcome = (await action({}, new FormData())) as { message?: string };
        expect(outcome.message).toMatch(/^Test payments are made and settled in a sandbox/);
      }
      expect(state.databaseTouched).toBe(false);
    } finally {
      state.environmentKind = "sandbox";
    }
  });
});
