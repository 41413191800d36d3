import { beforeAll, describe, expect, it } from 'vitest';
import { data, UNSAFE_ErrorResponseImpl as ErrorResponse } from 'react-router';
import { ApiError } from '../../lib/api';
import { i18n, initI18n } from '../../lib/i18n';
import { describeRouteError } from './describe-route-error';

beforeAll(() => {
  initI18n('en');
});

const describeError = (error: unknown) => describeRouteError(error, i18n.t);

describe('describeRouteError', () => {
  it('shows a route error response with its status and message', () => {
    expect(describeError(new ErrorResponse(403, 'Forbidden', 'No entry'))).toEqual({ status: 403, message: 'No entry' });
    expect(describeError(new ErrorResponse(500, 'Internal', { message: 'Broken' }))).toEqual({ status: 500, message: 'Broken' });
  });

  it('translates an error thrown with a catalogue key', () => {
    const thrown = data({ messageKey: 'unknown_middleware', params: { name: 'nope' } }, { status: 500 });
    expect(describeError(new ErrorResponse(500, '', thrown.data))).toEqual({ status: 500, message: 'Unknown middleware nope' });
  });

  it("says 'This page could not be found' for a bare 404", () => {
    expect(describeError(new ErrorResponse(404, '', null))).toEqual({ status: 404, message: 'This page could not be found' });
  });

  it('uses the status an error carries, or 500', () => {
    expect(describeError(Object.assign(new Error('Teapot'), { status: 418 }))).toEqual({ status: 418, message: 'Teapot' });
    expect(describeError(new Error('Kaput'))).toEqual({ status: 500, message: 'Kaput' });
    expect(describeError(new ApiError({ status: null, code: 'network_error', message: 'something went wrong' }))).toEqual({
      status: 500,
      message: 'something went wrong',
    });
  });

  it("falls back to 'Error'", () => {
    expect(describeError(new Error(''))).toEqual({ status: 500, message: 'Error' });
    expect(describeError('weird')).toEqual({ status: 500, message: 'Error' });
    expect(describeError(new ErrorResponse(502, '', null))).toEqual({ status: 502, message: 'Error' });
  });
});
