// Debian packages for `npm run setup`: which ones, why, and how contrib/non-free get enabled.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Every Debian package the service needs, with the reason. Section: where Debian keeps it. */
export const DEBIAN_PACKAGES = [
  ['python3', 'main', 'building better-sqlite3 (node-gyp)'],
  ['make', 'main', 'building better-sqlite3 (node-gyp)'],
  ['g++', 'main', 'building better-sqlite3 (node-gyp)'],
  ['bzip2', 'main', 'unpacking the official .tar.bz2 model archives (timbre models install)'],
  ['ffmpeg', 'main', 'decoding, encoding, loudness, pitch/tempo (rubberband) and mixing'],
  ['espeak-ng', 'main', 'eSpeak NG synthesizer, and the phonemizer data Kokoro uses'],
  ['espeak-ng-data', 'main', 'eSpeak NG voices and phoneme data'],
  ['libttspico-utils', 'non-free', 'SVOX Pico synthesizer (en-US, en-GB, de-DE, es-ES, fr-FR, it-IT)'],
  ['mbrola', 'contrib', 'MBROLA diphone synthesizer, driven by eSpeak NG'],
  ['mbrola-us1', 'non-free', 'MBROLA US English female'],
  ['mbrola-us2', 'non-free', 'MBROLA US English male'],
  ['mbrola-us3', 'non-free', 'MBROLA US English male'],
  ['mbrola-en1', 'non-free', 'MBROLA British English male'],
  ['mbrola-de1', 'non-free', 'MBROLA German female'],
  ['mbrola-fr1', 'non-free', 'MBROLA French male'],
  ['mbrola-es1', 'non-free', 'MBROLA Spanish male'],
  ['mbrola-it3', 'non-free', 'MBROLA Italian male'],
  ['festival', 'main', 'Festival synthesizer'],
  ['festvox-us-slt-hts', 'main', 'Festival HTS US English female (slt)'],
  ['festvox-kallpc16k', 'main', 'Festival US English male diphone (kal)'],
  ['festvox-kdlpc16k', 'main', 'Festival US English male diphone (ked)'],
  ['flite', 'main', 'Flite synthesizer with the awb, rms, slt and kal voices'],
  ['librhvoice5', 'non-free', 'RHVoice synthesizer library'],
  ['rhvoice', 'non-free', 'RHVoice-test, the command line `npm run bench` holds the RHVoice engine against'],
  ['rhvoice-english', 'non-free', 'RHVoice US English voices (alan, bdl, clb, slt, evgeniy-eng, lyubov)'],
  ['open-jtalk', 'main', 'Open JTalk Japanese synthesizer (the open_jtalk program)'],
  ['open-jtalk-mecab-naist-jdic', 'main', 'NAIST-jdic dictionary Open JTalk analyses Japanese text with'],
  ['hts-voice-nitech-jp-atr503-m001', 'contrib', 'Open JTalk Japanese male HTS voice (Nitech M001); CC-BY-3.0, in contrib as it was built with HTK'],
  ['pocketsphinx', 'main', 'PocketSphinx speech recognizer'],
  ['pocketsphinx-en-us', 'main', 'PocketSphinx US English acoustic model and dictionary'],
  ['praat', 'main', 'Praat, the pitch judge the cloning tests hold clones to (a measure the fit never uses)'],
  ['chromium', 'main', 'the browser the studio tests drive (playwright-core, which downloads none of its own)'],
  ['yt-dlp', 'main', 'audio from video URLs (POST /api/download-video)'],
  ['redis-server', 'main', 'Redis, which carries engine work to worker machines when TIMBRE_QUEUE_URL is set (the tests start their own)'],
].map(([name, section, reason]) => ({ name, section, reason }));

export const SOURCES_FILE = '/etc/apt/sources.list.d/timbre-contrib-nonfree.sources';

function isInstalled(name) {
  try {
    const status = execFileSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return status.includes('install ok installed');
  } catch {
    return false;
  }
}

function codename() {
  const release = readFileSync('/etc/os-release', 'utf8');
  return /^VERSION_CODENAME=(\S+)$/m.exec(release)?.[1]?.replace(/"/g, '');
}

/** Mirror and keyring of the existing main entry: apt refuses a second entry with a different Signed-By. */
function mainMirror() {
  const deb822 = '/etc/apt/sources.list.d/debian.sources';
  if (existsSync(deb822)) {
    for (const stanza of readFileSync(deb822, 'utf8').split(/\n\s*\n/)) {
      const uri = /^URIs:\s*(\S+)/m.exec(stanza)?.[1];
      if (!uri || /-security\/?$/.test(uri)) continue;
      return { uri, signedBy: /^Signed-By:\s*(\S+)/m.exec(stanza)?.[1] };
    }
  }
  if (existsSync('/etc/apt/sources.list')) {
    const line = readFileSync('/etc/apt/sources.list', 'utf8')
      .split('\n')
      .find((entry) => /^deb\s/.test(entry) && !entry.includes('-security'));
    const match = line && /^deb\s+(?:\[([^\]]*)\]\s+)?(\S+)/.exec(line);
    if (match) return { uri: match[2], signedBy: /signed-by=(\S+)/.exec(match[1] ?? '')?.[1] };
  }
  return { uri: 'http://deb.debian.org/debian', signedBy: undefined };
}

/** Writes the contrib/non-free sources file for the running release; true when it changed. */
function enableContribNonFree(log) {
  const release = codename();
  if (!release) throw new Error('Cannot tell the Debian release from /etc/os-release');
  const { uri, signedBy } = mainMirror();
  const lines = ['Types: deb', `URIs: ${uri}`, `Suites: ${release} ${release}-updates`, 'Components: contrib non-free'];
  if (signedBy) lines.push(`Signed-By: ${signedBy}`);
  const content = `${lines.join('\n')}\n`;
  if (existsSync(SOURCES_FILE) && readFileSync(SOURCES_FILE, 'utf8') === content) return false;
  writeFileSync(SOURCES_FILE, content);
  log(
    `Enabled Debian contrib and non-free for ${release} in ${SOURCES_FILE} (SVOX Pico, MBROLA, RHVoice and the Open JTalk voice live there; several MBROLA voices are for non-commercial use only)`,
  );
  return true;
}

function apt(args) {
  process.stdout.write(`$ apt-get ${args.join(' ')}\n`);
  const result = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed with ${result.status ?? result.signal}`);
}

/**
 * Installs what is missing when running as root; otherwise returns the commands to run.
 * Returns { ok, lines } for the set-up summary.
 */
export function installDebianPackages() {
  if (!existsSync('/usr/bin/dpkg-query')) {
    return { ok: false, lines: [`! Not a Debian system: install the equivalents of ${DEBIAN_PACKAGES.map((pkg) => pkg.name).join(' ')}`] };
  }
  const missing = DEBIAN_PACKAGES.filter((pkg) => !isInstalled(pkg.name));
  if (missing.length === 0) return { ok: true, lines: ['✓ Debian packages already installed'] };
  const names = missing.map((pkg) => pkg.name);
  const needsContrib = missing.some((pkg) => pkg.section !== 'main');
  if (process.getuid?.() !== 0) {
    const steps = [];
    if (needsContrib) steps.push(`enable Debian contrib and non-free (a file like ${SOURCES_FILE}), then`);
    steps.push(`sudo apt-get update && sudo apt-get install -y --no-install-recommends ${names.join(' ')}`);
    return { ok: false, lines: ['! Missing Debian packages; as root run:', ...steps.map((step) => `    ${step}`)] };
  }
  const lines = [];
  if (needsContrib) enableContribNonFree((line) => lines.push(`✓ ${line}`));
  apt(['update']);
  apt(['install', '-y', '--no-install-recommends', ...names]);
  lines.push(`✓ Installed Debian packages: ${names.join(' ')}`);
  return { ok: true, lines };
}
