import { applyLanguage } from '@/app/i18n';
import { ApiError } from '@/api/errors';
import { marketErrorText } from './marketErrors';

const refusal = (desc: string) => new ApiError({ kind: 'business', url: '/market/request', code: 3000, desc, message: desc });

describe('marketErrorText', () => {
  beforeAll(() => applyLanguage('zh-CN'));

  it.each([
    ['service 7 does not exist', '这个服务不存在或已下架'],
    ['serviceId: service 7 does not exist', '这个服务不存在或已下架'],
    ['serviceId: service 7 is your own', '不能向自己的服务提出需求'],
    ['serviceId: you already have an open request (12) for service 7', '你已有一个待处理的需求，等服务商处理或撤回后才能再提'],
    ['note: required', '请填写需求说明'],
    ['note: at most 500 characters', '需求说明最多 500 个字'],
    ['requestId: request 12 is delivered, only an open request is withdrawn', '这个需求已交付，只有待处理的需求才能撤回'],
    ['requestId: request 12 is withdrawn, only an open request is delivered', '这个需求已撤回，只有待处理的需求才能交付'],
    ['requestId: request 12 does not exist', '这个需求不存在'],
    ['reason: required', '请填写拒绝原因'],
    ['taskId: task 9 does not exist', '找不到这个作品，它可能已被删除'],
    ['taskId: task 9 has no video yet: make the video first', '这个作品还没有生成视频，请先生成视频再交付'],
    ['title: required', '请填写服务名称'],
    ['title: at most 40 characters', '服务名称最多 40 个字'],
    ['kind: `x` is not template or video', '服务类型只能是模板设计或视频制作'],
    ['description: at most 1000 characters', '服务介绍最多 1000 个字'],
    ['price: at most 40 characters', '价格最多 40 个字'],
    ['deliveryDays: 0 is out of range 1–60', '交付时间必须是 1–60 天'],
    ['sampleTaskIds: at most 6 samples', '最多选择 6 个样片'],
    ['sampleTaskIds: task 9 does not exist', '找不到选中的样片作品，它可能已被删除'],
    ['sampleTaskIds: task 9 has no video yet', '选中的样片作品还没有生成视频，请先生成视频'],
    ['requestId: request 12 is not yours', '不能对这个需求进行此操作，请刷新页面'],
  ])('words %s', (desc, text) => {
    expect(marketErrorText(refusal(desc))).toBe(text);
  });

  it('words the role refusal (4001) as such, not as an expired login', () => {
    const err = new ApiError({ kind: 'auth', url: '/market/service/save', code: 4001, desc: 'this needs the SERVICE_PROVIDER role', message: '登录过期,请重新登录！' });
    expect(marketErrorText(err)).toBe('只有服务商才能发布服务，请先申请成为服务商');
  });

  it('leaves other failures to the common wording', () => {
    expect(marketErrorText(new ApiError({ kind: 'network', url: '/market/services', message: 'x' }))).toBe('网络连接中断，请检查网络后重试');
  });
});
