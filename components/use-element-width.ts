"use client";

import { useEffect, useRef, useState } from "react";

/** An element's width in CSS pixels, kept current (a chart draws as wide as its card, labels keep their size). */
export function useElementWidth<Element extends HTMLElement>(initial = 720, minimum = 280) {
  const ref = useRef<Element>(null);
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) =>
      setWidth(Math.max(minimum, Math.round(entry!.contentRect.width))),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [minimum]);
  return [ref, width] as const;
}
