import { logOut } from "@/app/(login)/actions";

export function AccountMenu({ name, email }: { name: string; email: string }) {
  return (
    <details className="relative">
      <summary
        aria-label="Account menu"
        className="flex cursor-pointer list-none items-center gap-2 rounded-md px-2 py-1 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800"
      >
        <span
          aria-hidden
          className="flex h-8 w-8 items-center justify-center rounded-full bg-indigo-600 font-semibold text-white"
        >
          {email.slice(0, 1).toUpperCase()}
        </span>
        <span className="hidden max-w-48 truncate sm:inline">{email}</span>
      </summary>
      <div className="absolute right-0 z-10 mt-2 w-64 rounded-md bg-white p-2 shadow-lg ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
        <p className="truncate px-2 py-1 text-sm font-medium">{name}</p>
        <p className="truncate px-2 pb-2 text-xs text-zinc-500 dark:text-zinc-400">{email}</p>
        <form action={logOut}>
          <button
            type="submit"
            className="w-full rounded-md px-2 py-2 text-left text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800"
          >
            Log out
          </button>
        </form>
      </div>
    </details>
  );
}
