"""bianpai.workbooks"""
