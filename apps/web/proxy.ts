import { NextResponse, type NextRequest } from "next/server";
import { LANGUAGE_COOKIE, LANGUAGE_HEADER, isLanguage } from "./lib/language";

const ONE_YEAR_S = 365 * 24 * 60 * 60;

/**
 * `?lang=de` on any page: render this request in that language (the layout reads the header) and
 * remember the choice in a cookie for the next ones. Unsupported values are ignored.
 */
export function proxy(request: NextRequest) {
  const lang = request.nextUrl.searchParams.get("lang");
  if (!isLanguage(lang)) return NextResponse.next();
  const forwarded = new Headers(request.headers);
  forwarded.set(LANGUAGE_HEADER, lang);
  const response = NextResponse.next({ request: { headers: forwarded } });
  response.cookies.set(LANGUAGE_COOKIE, lang, { path: "/", maxAge: ONE_YEAR_S, sameSite: "lax" });
  return response;
}

export const config = {
  matcher: [{ source: "/((?!api|_next|ws|favicon.ico).*)", has: [{ type: "query", key: "lang" }] }],
};
