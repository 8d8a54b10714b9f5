import { encodeBody, FORM_CONTENT_TYPE, JSON_CONTENT_TYPE } from './encoding';

describe('encodeBody', () => {
  it('sends the collection and provider calls as JSON, so a list of template ids arrives whole', () => {
    const save = { kind: 'topic', name: '夏日', description: '', templateIds: [5, 6], coverTemplateId: 6 };
    expect(encodeBody('/manage/collection/save', save)).toEqual({ body: JSON.stringify(save), contentType: JSON_CONTENT_TYPE });
    expect(encodeBody('/manage/collection/order', { kind: 'topic', ids: [2, 1] }).contentType).toBe(JSON_CONTENT_TYPE);
    expect(encodeBody('/service/apply', { name: 'n', contact: 'c', intro: 'i' }).contentType).toBe(JSON_CONTENT_TYPE);
    expect(encodeBody('/manage/service/decide', { id: 1, approve: false, reason: 'r' }).contentType).toBe(JSON_CONTENT_TYPE);
  });

  it('sends the contest calls as JSON, so numbers arrive as numbers', () => {
    expect(encodeBody('/contest/submit', { contestId: 7, taskId: 9 })).toEqual({ body: '{"contestId":7,"taskId":9}', contentType: JSON_CONTENT_TYPE });
    expect(encodeBody('/contest/like', { entryId: 12 }).contentType).toBe(JSON_CONTENT_TYPE);
    expect(encodeBody('/manage/contest/save', { title: 't', startMs: 1, endMs: 2, ranking: 'likes' }).contentType).toBe(JSON_CONTENT_TYPE);
    expect(encodeBody('/manage/contest/score', { entryId: 12, score: 88 }).contentType).toBe(JSON_CONTENT_TYPE);
  });

  it('sends the marketplace calls as JSON, so sample ids arrive as a list and flags as booleans', () => {
    const save = { title: 't', kind: 'video', description: '', price: '500 元', deliveryDays: 7, sampleTaskIds: [3, 4] };
    expect(encodeBody('/market/service/save', save)).toEqual({ body: JSON.stringify(save), contentType: JSON_CONTENT_TYPE });
    expect(encodeBody('/market/service/publish', { id: 7, published: true }).contentType).toBe(JSON_CONTENT_TYPE);
    expect(encodeBody('/market/request', { serviceId: 7, note: 'n' }).contentType).toBe(JSON_CONTENT_TYPE);
    expect(encodeBody('/market/request/deliver', { requestId: 12, taskId: 9 }).contentType).toBe(JSON_CONTENT_TYPE);
  });

  it('form-encodes the calls the spec sends as forms', () => {
    expect(encodeBody('/videotask/save', { taskId: 1, name: 'x' }).contentType).toBe(FORM_CONTENT_TYPE);
  });
});
