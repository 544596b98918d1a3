/**
 * Words that carry no topic in a question. They are dropped from keyword
 * queries so "what is the NAS's IP" is scored on NAS and IP alone, and a
 * query made only of them can say so instead of matching every note.
 */
export const englishStopWords: ReadonlySet<string> = new Set(
  `
a about above after again against all am an and any are as at be because been before being below between both but by
can could did do does doing done down during each few for from further had has have having he her here hers herself him
himself his how i if in into is it its itself just me more most my myself no nor not of off on once only or other our
ours ourselves out over own same she should so some such than that the their theirs them themselves then there these
they this those through to too under until up very was we were what when where which while who whom why will with would
you your yours yourself yourselves s t don doesn didn isn wasn aren weren ve ll re d m o y ever also please tell know
anything something thing things get got
`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words that ask for the current state of something: the newest note should answer. */
export const englishRecencyWords: ReadonlySet<string> = new Set([
  'now',
  'currently',
  'current',
  'latest',
  'lately',
  'recent',
  'recently',
  'newest',
  'nowadays',
  'today',
  'still',
  'last',
]);

/**
 * Chinese question words, particles and recency words. A CJK run is split at
 * them (they are whole words, so splitting never cuts a content word), and
 * the bigrams that would straddle them are not queried.
 */
export const cjkRecencyWords: readonly string[] = ['现在', '目前', '最近', '最后', '最新', '如今', '当前', '眼下', '还在'];
export const cjkStopWords: readonly string[] = [
  '为什么',
  '是不是',
  '有没有',
  '什么',
  '哪里',
  '哪儿',
  '哪个',
  '哪些',
  '怎么',
  '怎样',
  '如何',
  '多少',
  '是否',
  '那个',
  '这个',
  '一下',
  '的',
  '是',
  '在',
  '吗',
  '呢',
  '吧',
  '啊',
  '呀',
  '嘛',
  '么',
];
