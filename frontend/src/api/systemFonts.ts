/** The maintenance area's font calls: the system fonts (`GET /font/ofdefault`) and their glyph coverage (`POST /font/test`). */
import { useQuery } from '@tanstack/react-query';
import { api, CODE_SUCCESS, type Envelope } from './client';

/** A system font as the server lists it. */
export interface SystemFont {
  id: string;
  name: string;
  nameCN: string;
  style: string;
  format: string;
}

/**
 * The sample coverage is measured on: the 500 most frequent Chinese characters (in frequency order),
 * Chinese punctuation, and Latin letters and digits.
 */
export const COVERAGE_SAMPLE =
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严龙飞，。！？、；：“”（）ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The distinct characters of the sample. */
export const SAMPLE_SIZE = new Set(COVERAGE_SAMPLE).size;

/** Returns the system fonts. */
export function useSystemFonts() {
  return useQuery({ queryKey: ['font', 'ofdefault'] as const, queryFn: () => api.get<SystemFont[]>('/font/ofdefault') });
}

/** How much of the sample a font draws: characters drawn, of how many, and the first missing ones. */
export interface Coverage {
  drawn: number;
  total: number;
  missing: string;
}

/** Measures a font's coverage of the sample (the client hands `/font/test`'s envelope back as it came). */
export async function fetchCoverage(fontId: string): Promise<Coverage> {
  const answer = await api.post<Envelope<{ missing: string; ok: boolean }>>('/font/test', { text: COVERAGE_SAMPLE, fontId }, { silent: true });
  if (answer?.code !== CODE_SUCCESS || !answer.data) throw new Error(answer?.desc || 'font test failed');
  const missing = [...new Set(answer.data.missing)].length;
  return { drawn: SAMPLE_SIZE - missing, total: SAMPLE_SIZE, missing: answer.data.missing };
}

/** Returns a font's coverage of the sample; a font's glyphs never change under its id. */
export function useCoverage(fontId: string) {
  return useQuery({ queryKey: ['font', 'coverage', fontId] as const, queryFn: () => fetchCoverage(fontId), staleTime: Infinity });
}
