// Translates a text and prints what it cost and what is left of the month's quota.
//   API_KEY=svc_test_... TRANSLATE_API=http://127.0.0.1:3000
import { createTranslationClient, isTranslated, isUsageHistory } from '@platform/api-client';

const api = createTranslationClient({ baseUrl: process.env.TRANSLATE_API ?? 'http://127.0.0.1:3000', apiKey: process.env.API_KEY ?? '' });

export async function translateAndReport(text: string, target: 'es' | 'fr' | 'it' | 'pt' = 'es'): Promise<string> {
  const { data, error, response } = await api.POST('/api/v1/translate', { body: { source: 'en', target, texts: [text] } });
  if (error) throw new Error(`${response.status} ${error.error}: ${error.message}`);
  if (!isTranslated(data)) throw new Error(`tier review answers a job: ${data.job}`);
  const { data: usage } = await api.GET('/api/v1/usage');
  const left = usage && !isUsageHistory(usage) ? usage.remaining : null;
  console.log(`${data.words} words, ${data.cost_cents} cents; ${left ?? 'unlimited'} words left this month`);
  return data.translations[0];
}
