import { Secret, TOTP } from "otpauth";
import {
  confirmItsYou,
  expect,
  logIn,
  logOut,
  signUp,
  startTwoFactorSetup,
  test,
  uniqueEmail,
} from "./fixtures";

/** What the merchant's authenticator app shows, `stepsAhead` 30-second steps from now. */
const codeFor = (key: string, stepsAhead = 0) =>
  new TOTP({ secret: Secret.fromBase32(key) }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });

test("enrol a second factor, sign in with a code and a recovery code (once); require it of the team", async ({
  page,
  browser,
}) => {
  const account = { name: "Two Factor Co", email: uniqueEmail("totp"), password: "a long passphrase" };
  await signUp(page, account);
  await page.goto("/dashboard/settings/security");
  // Requiring it of the team needs it on for yourself first.
  await page.getByRole("button", { name: "Require two-factor sign-in" }).click();
  // A team setting: the password first (sudo mode), then the refusal.
  await confirmItsYou(page, account.password);
  await expect(
    page.getByRole("alert").filter({ hasText: "Turn on two-factor sign-in for yourself first." }),
  ).toBeVisible();

  await startTwoFactorSetup(page, account.password);
  await expect(
    page.getByRole("img", { name: "QR code for your authenticator app" }).locator("svg"),
  ).toBeVisible();
  const key = (await page.getByTestId("totp-key").textContent())!;
  // A wrong code first: refused, the QR code stays.
  await page.getByLabel("Code from the app").fill("000000");
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The code is not valid." })).toBeVisible();
  await page.getByLabel("Code from the app").fill(codeFor(key));
  await page.getByRole("button", { name: "Turn on" }).click();
  const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const [recovery, spare, third] = await codes.allTextContents();
  await page.getByRole("button", { name: "I have saved them" }).click();
  await expect(page.getByText("10 of 10 recovery codes left")).toBeVisible();

  await logOut(page);
  await logIn(page, account.email, account.password);
  await expect(page.getByLabel("Authentication code")).toBeVisible();
  // The next step's code (the enrolment used this step's); kept, to try it again below.
  const usedCode = codeFor(key, 1);
  await page.getByLabel("Authentication code").fill(usedCode);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // The recovery code works once.
  await logOut(page);
  await logIn(page, account.email, account.password);
  await page.getByLabel("Authentication code").fill(recovery!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await logOut(page);
  await logIn(page, account.email, account.password);
  /** Submits a code and waits for the answer (a refusal keeps the same page, so wait for the action itself). */
  const submitCode = async (code: string) => {
    await page.getByLabel("Authentication code").fill(code);
    await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      page.getByRole("button", { name: "Verify" }).click(),
    ]);
  };
  await submitCode(recovery!);
  await expect(page.getByRole("alert").filter({ hasText: "That code is not valid" })).toBeVisible();
  await expect(page.getByLabel("Authentication code")).toBeVisible();

  // The very code already used is refused too (each time step works once), and says so.
  await submitCode(usedCode);
  await expect(page.getByRole("alert").filter({ hasText: "That code was already used" })).toBeVisible();
  await expect(page.getByLabel("Authentication code")).toBeVisible();

  // Signed in with the spare: require it of everyone; then it cannot be turned off.
  await page.getByLabel("Authentication code").fill(spare!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/dashboard/settings/security");
  await expect(page.getByText("8 of 10 recovery codes left")).toBeVisible();
  await page.getByRole("button", { name: "Require two-factor sign-in" }).click();
  // A new session: the password and a second factor again (a recovery code: the app's codes so far are used).
  await confirmItsYou(page, account.password, third);
  await expect(page.getByText("Your team requires it, so it stays on.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Turn off" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Make it optional" })).toBeVisible();

  // A member invited now must set up a second factor before anything else.
  await page.goto("/dashboard/team");
  const memberEmail = uniqueEmail("member");
  await page.getByLabel("Email").fill(memberEmail);
  await page.getByRole("button", { name: "Invite" }).click();
  const link = (await page.getByTestId("invitation-link").textContent())!;
  const memberContext = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.251" },
  });
  const member = await memberContext.newPage();
  await member.goto(new URL(link).pathname);
  await member.getByLabel("Your name").fill("Morgan Member");
  await member.getByLabel("Password").fill("member passphrase");
  await member.getByRole("button", { name: "Join the team" }).click();
  await expect(member).toHaveURL(/\/dashboard\/settings\/security\?required=1$/);
  await expect(member.getByText("Your team requires two-factor sign-in.")).toBeVisible();
  await member.goto("/dashboard/payments");
  await expect(member).toHaveURL(/\/dashboard\/settings\/security\?required=1$/);
  await memberContext.close();
});

test("the code that turned two-factor on cannot sign in again: the message says to wait for the next code", async ({
  page,
}) => {
  const account = { name: "Replay Co", email: uniqueEmail("replay"), password: "a long passphrase" };
  await signUp(page, account);
  await page.goto("/dashboard/settings/security");
  await startTwoFactorSetup(page, account.password);
  const key = (await page.getByTestId("totp-key").textContent())!;
  const enrolmentCode = codeFor(key);
  await page.getByLabel("Code from the app").fill(enrolmentCode);
  await page.getByRole("button", { name: "Turn on" }).click();
  await page.getByRole("button", { name: "I have saved them" }).click();

  // Within the same 30 seconds the app still shows that code: it was used, so it is refused, and says why.
  await logOut(page);
  await logIn(page, account.email, account.password);
  await page.getByLabel("Authentication code").fill(enrolmentCode);
  await page.getByRole("button", { name: "Verify" }).click();
  // (The router's route announcer is an alert too: pick the form's.)
  const refusal = page.getByRole("alert").filter({ hasText: "code" });
  await expect(refusal).toContainText("That code was already used");
  await expect(refusal).toContainText("wait for the next code");
  await expect(refusal).not.toContainText("not valid");
  // A wrong code still reads as wrong.
  const wrong = String((Number(enrolmentCode) + 500_000) % 1_000_000).padStart(6, "0");
  await page.getByLabel("Authentication code").fill(wrong);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(refusal).toContainText("That code is not valid");
  // The next code signs in.
  await page.getByLabel("Authentication code").fill(codeFor(key, 1));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
