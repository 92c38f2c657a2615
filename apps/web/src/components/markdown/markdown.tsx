import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Lexer, type Token, type Tokens } from 'marked';
import { Fragment, useMemo, type ReactNode } from 'react';

// Markdown shown safely (the terms of use, the brokers' prevention alerts next): marked only reads
// the text into tokens, and React draws each token as an element. No HTML string is ever put in
// the page: raw HTML in the source shows as text, and a link leads somewhere only through
// http(s), mailto or a path of the app (never `javascript:`).

/** Whether a link's target is one the page may follow. */
export function safeHref(href: string): string | null {
  const trimmed = href.trim();
  if (/^(https?:|mailto:)/i.test(trimmed)) return trimmed;
  if (trimmed.startsWith('/') && !trimmed.startsWith('//')) return trimmed;
  if (trimmed.startsWith('#')) return trimmed;
  return null;
}

function inline(tokens: readonly Token[] | undefined, key = ''): ReactNode[] {
  return (tokens ?? []).map((token, index) => {
    const k = `${key}${index}`;
    switch (token.type) {
      case 'strong':
        return <strong key={k}>{inline((token as Tokens.Strong).tokens, k)}</strong>;
      case 'em':
        return <em key={k}>{inline((token as Tokens.Em).tokens, k)}</em>;
      case 'del':
        return <del key={k}>{inline((token as Tokens.Del).tokens, k)}</del>;
      case 'codespan':
        return <code key={k}>{(token as Tokens.Codespan).text}</code>;
      case 'br':
        return <br key={k} />;
      case 'link': {
        const link = token as Tokens.Link;
        const href = safeHref(link.href);
        const children = inline(link.tokens, k);
        if (!href) return <Fragment key={k}>{children}</Fragment>;
        const external = /^https?:/i.test(href);
        return (
          <Link key={k} href={href} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
            {children}
          </Link>
        );
      }
      case 'text': {
        const text = token as Tokens.Text;
        return <Fragment key={k}>{text.tokens ? inline(text.tokens, k) : text.text}</Fragment>;
      }
      default:
        // escape, html, image and anything else: their text, as text.
        return <Fragment key={k}>{'text' in token && typeof token.text === 'string' ? token.text : token.raw}</Fragment>;
    }
  });
}

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;
const VARIANTS = ['h4', 'h6', 'subtitle1', 'subtitle2', 'subtitle2', 'subtitle2'] as const;

function block(token: Token, key: string, headingOffset: number): ReactNode {
  switch (token.type) {
    case 'heading': {
      const heading = token as Tokens.Heading;
      const level = Math.max(0, Math.min(5, heading.depth - 1 + headingOffset));
      return (
        <Typography key={key} component={HEADINGS[level]!} variant={VARIANTS[level]!} sx={{ fontWeight: 700, mt: 3, mb: 1 }}>
          {inline(heading.tokens, key)}
        </Typography>
      );
    }
    case 'paragraph':
      return (
        <Typography key={key} sx={{ mb: 1.5 }}>
          {inline((token as Tokens.Paragraph).tokens, key)}
        </Typography>
      );
    case 'list': {
      const list = token as Tokens.List;
      return (
        <Box key={key} component={list.ordered ? 'ol' : 'ul'} sx={{ mt: 0, mb: 1.5, pl: 3 }}>
          {list.items.map((item, index) => (
            <Typography key={index} component="li" sx={{ mb: 0.5 }}>
              {item.tokens.map((child, childIndex) =>
                child.type === 'text' ? inline((child as Tokens.Text).tokens ?? [child], `${key}-${index}-${childIndex}`) : block(child, `${key}-${index}-${childIndex}`, headingOffset),
              )}
            </Typography>
          ))}
        </Box>
      );
    }
    case 'blockquote':
      return (
        <Box key={key} component="blockquote" sx={{ m: 0, mb: 1.5, pl: 2, borderLeft: 3, borderColor: 'divider', color: 'text.secondary' }}>
          {(token as Tokens.Blockquote).tokens.map((child, index) => block(child, `${key}-${index}`, headingOffset))}
        </Box>
      );
    case 'hr':
      return <Divider key={key} sx={{ my: 2 }} />;
    case 'code':
      return (
        <Box key={key} component="pre" sx={{ p: 1.5, mb: 1.5, bgcolor: 'action.hover', borderRadius: 1, overflowX: 'auto' }}>
          <code>{(token as Tokens.Code).text}</code>
        </Box>
      );
    case 'space':
      return null;
    default:
      // html and anything unknown: shown as the text it is.
      return (
        <Typography key={key} sx={{ mb: 1.5, whiteSpace: 'pre-wrap' }}>
          {token.raw}
        </Typography>
      );
  }
}

/**
 * Markdown as React elements. `headingOffset` moves its headings down: with 1 (the default), a
 * `#` becomes an h2 under the page's own h1.
 */
export function Markdown({ source, headingOffset = 1 }: { source: string; headingOffset?: number }) {
  const tokens = useMemo(() => Lexer.lex(source, { gfm: true }), [source]);
  return <Box sx={{ '& > :first-of-type': { mt: 0 } }}>{tokens.map((token, index) => block(token, String(index), headingOffset))}</Box>;
}
